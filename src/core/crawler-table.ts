// The crawlers that matter, by robots.txt product token: who runs each, why it fetches, how its User-Agent shows it.

export const CRAWLER_PURPOSES = [
  'search',
  'ai_training',
  'ai_assistant',
  'ai_search',
  'seo',
  'archive',
  'social',
  'monitoring',
  'other',
] as const;

export type CrawlerPurpose = (typeof CRAWLER_PURPOSES)[number];

export interface CrawlerEntry {
  /** The product token robots.txt groups name it by, in its operator's spelling. */
  readonly token: string;
  readonly operator: string;
  readonly purpose: CrawlerPurpose;
  /** Substrings of its User-Agent header (case-insensitive, whole words); none when it is a robots.txt token only. */
  readonly patterns: readonly string[];
  /** The operator's documentation of the token. */
  readonly source: string;
}

const GOOGLE = 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers';
const GOOGLE_SPECIAL =
  'https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers';
const BING = 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0';
const OPENAI = 'https://platform.openai.com/docs/bots';
const ANTHROPIC =
  'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler';
const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers';
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots';
const APPLE = 'https://support.apple.com/en-us/119829';
const MOZ = 'https://moz.com/help/moz-procedures/crawlers';

function entry(
  token: string,
  operator: string,
  purpose: CrawlerPurpose,
  source: string,
  patterns: readonly string[] = [token],
): CrawlerEntry {
  return { token, operator, purpose, patterns, source };
}

export const CRAWLER_TABLE: readonly CrawlerEntry[] = [
  entry('Googlebot', 'Google', 'search', GOOGLE),
  entry('Googlebot-Image', 'Google', 'search', GOOGLE),
  entry('Googlebot-News', 'Google', 'search', GOOGLE),
  entry('Googlebot-Video', 'Google', 'search', GOOGLE),
  entry('Storebot-Google', 'Google', 'search', GOOGLE),
  entry('Google-InspectionTool', 'Google', 'search', GOOGLE),
  entry('GoogleOther', 'Google', 'other', GOOGLE),
  entry('GoogleOther-Image', 'Google', 'other', GOOGLE),
  entry('GoogleOther-Video', 'Google', 'other', GOOGLE),
  entry('Google-CloudVertexBot', 'Google', 'ai_assistant', GOOGLE),
  entry('Google-Extended', 'Google', 'ai_training', GOOGLE, []),
  entry('AdsBot-Google', 'Google', 'other', GOOGLE_SPECIAL),
  entry('AdsBot-Google-Mobile', 'Google', 'other', GOOGLE_SPECIAL),
  entry('Mediapartners-Google', 'Google', 'other', GOOGLE_SPECIAL, [
    'Mediapartners-Google',
    'Mediapartners (Googlebot)',
  ]),
  entry('Bingbot', 'Microsoft', 'search', BING),
  entry('msnbot', 'Microsoft', 'search', BING),
  entry('BingPreview', 'Microsoft', 'search', BING),
  entry('AdIdxBot', 'Microsoft', 'other', BING),
  entry('Applebot', 'Apple', 'search', APPLE),
  entry('Applebot-Extended', 'Apple', 'ai_training', APPLE, []),
  entry(
    'DuckDuckBot',
    'DuckDuckGo',
    'search',
    'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot',
  ),
  entry(
    'DuckAssistBot',
    'DuckDuckGo',
    'ai_assistant',
    'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot',
  ),
  entry(
    'YandexBot',
    'Yandex',
    'search',
    'https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html',
  ),
  entry(
    'YandexImages',
    'Yandex',
    'search',
    'https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html',
  ),
  entry('Baiduspider', 'Baidu', 'search', 'https://www.baidu.com/search/robots_english.html'),
  entry('Sogou', 'Sogou', 'search', 'https://www.sogou.com/docs/help/webmasters.htm#07', [
    'Sogou web spider',
    'Sogou inst spider',
    'Sogou Pic Spider',
  ]),
  entry('SeznamBot', 'Seznam.cz', 'search', 'https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/'),
  entry('Yeti', 'Naver', 'search', 'https://searchadvisor.naver.com/guide/seo-basic-firewall', ['Yeti/']),
  entry('PetalBot', 'Huawei', 'search', 'https://webmaster.petalsearch.com/site/petalbot'),
  entry('Qwantbot', 'Qwant', 'search', 'https://help.qwant.com/bot/'),
  entry('MojeekBot', 'Mojeek', 'search', 'https://www.mojeek.com/bot.html'),
  entry('GPTBot', 'OpenAI', 'ai_training', OPENAI),
  entry('ChatGPT-User', 'OpenAI', 'ai_assistant', OPENAI),
  entry('OAI-SearchBot', 'OpenAI', 'ai_search', OPENAI),
  entry('ClaudeBot', 'Anthropic', 'ai_training', ANTHROPIC),
  entry('Claude-User', 'Anthropic', 'ai_assistant', ANTHROPIC),
  entry('Claude-SearchBot', 'Anthropic', 'ai_search', ANTHROPIC),
  entry('Claude-Web', 'Anthropic', 'ai_assistant', ANTHROPIC),
  entry('anthropic-ai', 'Anthropic', 'ai_training', ANTHROPIC),
  entry('CCBot', 'Common Crawl', 'ai_training', 'https://commoncrawl.org/ccbot'),
  entry('PerplexityBot', 'Perplexity', 'ai_search', PERPLEXITY),
  entry('Perplexity-User', 'Perplexity', 'ai_assistant', PERPLEXITY),
  entry('Bytespider', 'ByteDance', 'ai_training', 'https://bytespider.bytedance.com/'),
  entry('meta-externalagent', 'Meta', 'ai_training', META),
  entry('meta-externalfetcher', 'Meta', 'ai_assistant', META),
  entry('FacebookBot', 'Meta', 'ai_training', META),
  entry('facebookexternalhit', 'Meta', 'social', META),
  entry('Amazonbot', 'Amazon', 'ai_training', 'https://developer.amazon.com/amazonbot'),
  entry('cohere-ai', 'Cohere', 'ai_assistant', 'https://docs.cohere.com/docs/cohere-crawler'),
  entry(
    'cohere-training-data-crawler',
    'Cohere',
    'ai_training',
    'https://docs.cohere.com/docs/cohere-crawler',
  ),
  entry('Diffbot', 'Diffbot', 'other', 'https://docs.diffbot.com/docs/diffbot-crawler'),
  entry('YouBot', 'You.com', 'ai_search', 'https://about.you.com/youbot/'),
  entry('Ai2Bot', 'Allen Institute for AI', 'ai_training', 'https://allenai.org/crawler'),
  entry('Timpibot', 'Timpi', 'ai_training', 'https://timpi.io/'),
  entry('AhrefsBot', 'Ahrefs', 'seo', 'https://ahrefs.com/robot'),
  entry('AhrefsSiteAudit', 'Ahrefs', 'seo', 'https://ahrefs.com/robot/site-audit'),
  entry('SemrushBot', 'Semrush', 'seo', 'https://www.semrush.com/bot/'),
  entry('MJ12bot', 'Majestic', 'seo', 'https://mj12bot.com/'),
  entry('DotBot', 'Moz', 'seo', `${MOZ}/dotbot`),
  entry('rogerbot', 'Moz', 'seo', `${MOZ}/rogerbot`),
  entry(
    'Screaming Frog SEO Spider',
    'Screaming Frog',
    'seo',
    'https://www.screamingfrog.co.uk/seo-spider/user-guide/configuration/#user-agent',
  ),
  entry('archive.org_bot', 'Internet Archive', 'archive', 'https://archive.org/details/archive.org_bot'),
  entry('ia_archiver', 'Internet Archive', 'archive', 'https://archive.org/details/archive.org_bot'),
  entry(
    'Twitterbot',
    'X',
    'social',
    'https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started',
  ),
  entry('LinkedInBot', 'LinkedIn', 'social', 'https://www.linkedin.com/robots.txt'),
  entry(
    'Pinterestbot',
    'Pinterest',
    'social',
    'https://help.pinterest.com/en/business/article/pinterest-crawler',
  ),
  entry('Slackbot', 'Slack', 'social', 'https://api.slack.com/robots', [
    'Slackbot',
    'Slackbot-LinkExpanding',
  ]),
  entry(
    'Discordbot',
    'Discord',
    'social',
    'https://discord.com/developers/docs/resources/message#embed-fields-by-embed-type',
  ),
  entry('TelegramBot', 'Telegram', 'social', 'https://core.telegram.org/bots/webapps'),
  entry('UptimeRobot', 'UptimeRobot', 'monitoring', 'https://uptimerobot.com/help/faq/'),
];

/** The default agents of interest: the major search and AI crawlers. */
export const MAJOR_CRAWLERS: readonly string[] = Object.freeze([
  'Googlebot',
  'Bingbot',
  'Applebot',
  'DuckDuckBot',
  'YandexBot',
  'Baiduspider',
  'Google-Extended',
  'Applebot-Extended',
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'CCBot',
  'PerplexityBot',
  'Perplexity-User',
  'Bytespider',
  'meta-externalagent',
  'Amazonbot',
]);
