import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw } from '../../../../src/pipeline/report/html/html-escape.js';

describe('escapeHtml', () => {
  it('escapes the five characters that end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('replaces controls, noncharacters and lone surrogates with U+FFFD, and keeps tab, LF, CR and real pairs', () => {
    expect(escapeHtml('a\u0000b\u001Fc\u007Fd\u0085e\uFFFEf')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf');
    expect(escapeHtml('\uD800x\uDC00')).toBe('\uFFFDx\uFFFD');
    expect(escapeHtml('t\tl\nr\r😀é')).toBe('t\tl\nr\r😀é');
  });
});

describe('html template', () => {
  it('escapes values but not nested html, and drops null, undefined and false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${'a&b'}${inner}${null}${undefined}${false}${3}${['<', raw('<br>')]}</p>`.text).toBe(
      '<p>a&amp;b<b>&lt;i&gt;</b>3&lt;<br></p>',
    );
  });
});
