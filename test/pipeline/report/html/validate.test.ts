import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../../../src/pipeline/report/html/render-report.js';
import { fixtureModel } from './fixture-model.js';

const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

async function problems(page: string): Promise<string[]> {
  const report = await validator.validateString(page);
  return report.results.flatMap((r) =>
    r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  );
}

describe('the rendered report is valid HTML (html-validate, recommended preset)', () => {
  it('passes with every section filled', async () => {
    expect(await problems(renderReportHtml(fixtureModel()))).toEqual([]);
  });

  it('passes with every optional section empty', async () => {
    const model = fixtureModel();
    model.overTime = null;
    model.violations.total = 0;
    model.headline.agents = [];
    expect(await problems(renderReportHtml(model))).toEqual([]);
  });

  it('the validator does flag a broken page (the check can fail)', async () => {
    const page = renderReportHtml(fixtureModel()).replace('<main>', '<main><div id="x"><div id="x"></div>');
    expect((await problems(page)).length).toBeGreaterThan(0);
  });
});
