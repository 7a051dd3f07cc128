import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture, sign } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'off',
    ndaText: 'The visitor keeps confidential what is seen inside.',
    localizedNdaText: { 'pt-BR': 'O visitante mantém em sigilo o que vê aqui dentro.' },
  });
  const purpose = await kiosk.api('POST', '/v1/customfields', {
    name: 'Purpose',
    type: 'Dropdown',
    options: ['Meeting', 'Interview'],
    localizedName: { 'pt-BR': 'Motivo', de: 'Zweck' },
    localizedOptions: { 'pt-BR': ['Reunião', 'Entrevista'], de: ['Besprechung', ''] },
    required: true,
  });
  assert.equal(purpose.status, 200, JSON.stringify(purpose.body));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

test("the company's content in the visitor's language, falling back where a language has none", async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: 'Português' }).click();
  await page.getByRole('button', { name: /Vim fazer uma visita/ }).click();
  await page.getByLabel('Nome completo').fill('Lúcia Prado');
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByRole('group', { name: /Motivo/ }).waitFor();
  assert.equal(await page.getByRole('radio', { name: 'Meeting' }).count(), 0, 'the options speak Portuguese');
  await page.getByRole('radio', { name: 'Entrevista' }).check();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'walk-in-custom-fields-pt-BR');
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByText('O visitante mantém em sigilo o que vê aqui dentro.').waitFor();
  await sign(page);
  await page.getByRole('button', { name: 'Concordo e assino' }).click();
  await page.getByRole('heading', { name: 'Check-in feito, Lúcia Prado!' }).waitFor();
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=L%C3%BAcia%20Prado');
  assert.equal(body.visits[0].customFields[0].value, 'Interview', 'the answer stored is the option itself');
  await page.getByRole('button', { name: 'Concluir' }).click();

  // German labels one option and not the other; Chinese has no agreement of its own: each falls back.
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await page.getByRole('button', { name: /Ich bin zu Besuch/ }).click();
  await page.getByLabel('Vollständiger Name').fill('Dieter Roth');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByRole('group', { name: /Zweck/ }).waitFor();
  await page.getByRole('radio', { name: 'Besprechung' }).waitFor();
  await page.getByRole('radio', { name: 'Interview' }).waitFor();
  await page.getByRole('button', { name: 'Zum Anfang' }).click();
  await page.getByRole('button', { name: '简体中文' }).click();
  await page.getByRole('button', { name: /我来访问/ }).click();
  await page.getByLabel('姓名').fill('王芳');
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByRole('radio', { name: 'Meeting' }).check();
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByText('The visitor keeps confidential what is seen inside.').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
