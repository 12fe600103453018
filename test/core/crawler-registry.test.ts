import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CRAWLER_PURPOSES,
  crawlerInfo,
  MAJOR_CRAWLERS,
  resolveCrawler,
} from '../../src/core/crawler-registry.js';
import { CRAWLER_TABLE } from '../../src/core/crawler-table.js';

const CUA = 'crawler-user-agents instance';

/** Real User-Agent headers, each with where it is published, and the token it is judged under. */
const CRAWLERS: ReadonlyArray<[ua: string, token: string, source: string]> = [
  [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Googlebot',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Googlebot',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'Googlebot-Image/1.0',
    'Googlebot-Image',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'Googlebot-Video/1.0',
    'Googlebot-Video',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36',
    'Storebot-Google',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleOther)',
    'GoogleOther',
    'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers',
  ],
  [
    'AdsBot-Google (+http://www.google.com/adsbot.html)',
    'AdsBot-Google',
    'https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)',
    'AdsBot-Google-Mobile',
    'https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers',
  ],
  [
    'Mediapartners-Google',
    'Mediapartners-Google',
    'https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
    'Bingbot',
    'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0',
  ],
  ['msnbot/2.0b (+http://search.msn.com/msnbot.htm)', 'msnbot', CUA],
  [
    'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/534+ (KHTML, like Gecko) BingPreview/1.0b',
    'BingPreview',
    CUA,
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Applebot',
    'https://support.apple.com/en-us/119829',
  ],
  [
    'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)',
    'DuckDuckBot',
    'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot',
  ],
  [
    'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
    'YandexBot',
    'https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html',
  ],
  ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'Baiduspider', CUA],
  ['Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', 'Sogou', CUA],
  [
    'Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)',
    'SeznamBot',
    'https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/',
  ],
  ['Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)', 'Yeti', CUA],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'GPTBot',
    'https://platform.openai.com/docs/bots',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'ChatGPT-User',
    'https://platform.openai.com/docs/bots',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
    'OAI-SearchBot',
    'https://platform.openai.com/docs/bots',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'ClaudeBot',
    CUA,
  ],
  ['Claude-User/1.0 (+Claude-User@anthropic.com)', 'Claude-User', CUA],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot', 'https://commoncrawl.org/ccbot'],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    'PerplexityBot',
    'https://docs.perplexity.ai/guides/bots',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
    'Perplexity-User',
    'https://docs.perplexity.ai/guides/bots',
  ],
  [
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
    'Bytespider',
    CUA,
  ],
  [
    'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-externalagent',
    'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers',
  ],
  [
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'facebookexternalhit',
    'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)',
    'Amazonbot',
    'https://developer.amazon.com/amazonbot',
  ],
  [
    'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
    'AhrefsBot',
    'https://ahrefs.com/robot',
  ],
  [
    'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
    'SemrushBot',
    'https://www.semrush.com/bot/',
  ],
  ['Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)', 'MJ12bot', 'https://mj12bot.com/'],
  ['Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)', 'DotBot', CUA],
  ['Mozilla/5.0 (compatible; rogerBot/1.0; UrlCrawler; http://www.seomoz.org/dp/rogerbot)', 'rogerbot', CUA],
  ['Screaming Frog SEO Spider/20.0', 'Screaming Frog SEO Spider', CUA],
  [
    'Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)',
    'archive.org_bot',
    CUA,
  ],
  ['ia_archiver (+http://www.alexa.com/site/help/webmasters; crawler@alexa.com)', 'ia_archiver', CUA],
  ['Twitterbot/1.0', 'Twitterbot', CUA],
  [
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'LinkedInBot',
    CUA,
  ],
  ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Slackbot', 'https://api.slack.com/robots'],
  ['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'Discordbot', CUA],
  ['Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)', 'UptimeRobot', CUA],
  ['Mozilla/5.0 (compatible;PetalBot;+https://webmaster.petalsearch.com/site/petalbot)', 'PetalBot', CUA],
];

/** Crawlers outside our table: known to crawler-user-agents, or only bot-like. */
const UNKNOWN: ReadonlyArray<[ua: string, token: string]> = [
  ['Mozilla/5.0 (compatible; BLEXBot/1.0; +http://webmeup-crawler.com/)', 'BLEXBot'],
  ['Mozilla/5.0 (compatible; Barkrowler/0.9; +https://babbar.tech/crawler)', 'Barkrowler'],
  ['Mozilla/5.0 (compatible; ZzzNewBot/3.1; +https://zzz.example/about)', 'ZzzNewBot'],
  ['Mozilla/5.0 (X11; Linux x86_64) QuuxSpider/0.4 (+https://quux.example)', 'QuuxSpider'],
];

const BROWSERS: readonly string[] = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
];

describe('resolveCrawler: User-Agent headers of crawlers in our table', () => {
  it.each(CRAWLERS)('%s → %s', (ua, token, source) => {
    expect(source).toMatch(/^https:\/\/|instance$/);
    const r = resolveCrawler(ua);
    expect(r.token).toBe(token);
    expect(r).toMatchObject({ known: true, crawler: { token } });
  });

  it('covers at least 30 distinct crawlers', () => {
    expect(new Set(CRAWLERS.map((c) => c[1])).size).toBeGreaterThanOrEqual(30);
  });
});

describe('resolveCrawler: other crawlers', () => {
  it.each(UNKNOWN)('%s → %s, unknown', (ua, token) => {
    expect(resolveCrawler(ua)).toEqual({ token, known: false });
  });
});

describe('resolveCrawler: browsers and empty cells are not crawlers', () => {
  it.each([...BROWSERS, '', '-', '  ', ' - '])('%j', (ua) => {
    expect(resolveCrawler(ua)).toEqual({ token: null, reason: 'not_a_crawler' });
  });
});

describe('resolveCrawler: bare product tokens', () => {
  it('are used as is, in our spelling when known', () => {
    expect(resolveCrawler('GPTBot')).toMatchObject({ token: 'GPTBot', known: true });
    expect(resolveCrawler('gptbot')).toMatchObject({ token: 'GPTBot', known: true });
    expect(resolveCrawler('bingbot/2.0')).toMatchObject({ token: 'Bingbot', known: true });
    expect(resolveCrawler('MyBot/2.1')).toEqual({ token: 'MyBot', known: false });
    expect(resolveCrawler('Google-Extended')).toMatchObject({
      token: 'Google-Extended',
      crawler: { operator: 'Google', purpose: 'ai_training' },
    });
  });

  it('never throw, and a bare token resolves to itself', () => {
    const tokenChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-0123456789');
    fc.assert(
      fc.property(
        fc.string({ unit: tokenChar, minLength: 1, maxLength: 30 }).filter((t) => t !== '-'),
        (token) => {
          const r = resolveCrawler(token);
          const info = crawlerInfo(token);
          expect(r.token).toBe(info === undefined ? token : info.token);
          if (info !== undefined) expect(info.token.toLowerCase()).toBe(token.toLowerCase());
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (value) => {
        const r = resolveCrawler(value);
        if (r.token !== null) expect(r.token).not.toBe('');
      }),
    );
  });
});

describe('the table', () => {
  it('names every entry once, with a documented purpose and a source', () => {
    const lower = CRAWLER_TABLE.map((e) => e.token.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
    expect(CRAWLER_TABLE.length).toBeGreaterThanOrEqual(40);
    for (const e of CRAWLER_TABLE) {
      expect(CRAWLER_PURPOSES).toContain(e.purpose);
      expect(e.source).toMatch(/^https:\/\//);
    }
  });

  it('knows every major crawler', () => {
    for (const token of MAJOR_CRAWLERS) expect(crawlerInfo(token)?.token).toBe(token);
  });
});
