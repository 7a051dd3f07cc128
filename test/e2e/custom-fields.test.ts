import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', { visitorFields: { email: 'off', phone: 'off' }, pictureMode: 'off' });
  const define = async (field: Record<string, unknown>) => {
    const { status, body } = await kiosk.api('POST', '/v1/customfields', field);
    assert.equal(status, 200, JSON.stringify(body));
  };
  await define({ name: 'Vehicle plate', type: 'Text', required: true, sort: 0, localizedName: { 'pt-BR': 'Placa' } });
  await define({ name: 'People in your group', type: 'Number', sort: 1, localizedName: { 'pt-BR': 'Pessoas' } });
  await define({
    name: 'Purpose',
    type: 'Dropdown',
    options: ['Meeting', 'Delivery', 'Interview'],
    required: true,
    sort: 2,
    localizedName: { 'pt-BR': 'Motivo' },
  });
  await define({
    name: 'I have read the safety rules',
    type: 'Checkbox',
    required: true,
    location: 'QUESTIONNAIRE',
    localizedName: { 'pt-BR': 'Li as regras de segurança' },
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

test("the company's custom fields and questionnaire: in the visitor's language, validated, stored", async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: 'Português' }).click();
  await page.getByRole('button', { name: /Vim fazer uma visita/ }).click();
  await page.getByLabel('Nome completo').fill('Sofia Ramos');
  await page.getByLabel('Empresa').fill('Hooli');
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();

  await page.getByRole('heading', { name: 'Mais alguns dados' }).waitFor();
  await page.getByLabel('Pessoas').fill('dois');
  await page.getByRole('button', { name: 'Avançar' }).click();
  assert.equal(await page.getByText('Preencha este campo.').count(), 2, 'the plate and the purpose');
  await page.getByText('Digite um número.').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'walk-in-custom-fields');
  await page.getByLabel('Placa').fill('BRA2E19');
  assert.equal(await page.getByText('Preencha este campo.').count(), 1, 'the plate answered: its error is gone');
  await page.getByLabel('Pessoas').fill('2,5');
  await page.getByText('Digite um número.').waitFor({ state: 'detached' });
  await page.getByRole('radio', { name: 'Interview' }).check();
  await page.getByText('Preencha este campo.').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Avançar' }).click();

  await page.getByRole('heading', { name: 'Algumas perguntas' }).waitFor();
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByText('Preencha este campo.').waitFor();
  await page.getByLabel('Li as regras de segurança').check();
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByRole('heading', { name: 'Check-in feito, Sofia Ramos!' }).waitFor();

  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Sofia%20Ramos');
  const visit = body.visits[0];
  assert.deepEqual(
    visit.customFields.map((f: { name: string; value: string }) => [f.name, f.value]),
    [
      ['Vehicle plate', 'BRA2E19'],
      ['People in your group', '2.5'],
      ['Purpose', 'Interview'],
    ],
  );
  assert.deepEqual(
    visit.questionnaireFields.map((f: { customFieldId: string; value: string }) => f.value),
    ['true'],
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('the front desk defines and removes custom fields', async () => {
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByLabel('PIN').fill(kiosk.pin);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Custom fields', exact: true }) });
  const adding = page.locator('section', { has: page.getByRole('heading', { name: 'Add a custom field' }) });
  await section.getByText('Vehicle plate').waitFor();
  await adding.getByLabel('Question', { exact: true }).fill('Badge colour');
  await adding.getByLabel('Type').selectOption('Dropdown');
  await adding.getByLabel('Choices (one per line)').fill('Red\nBlue');
  await adding.getByRole('button', { name: 'Add field' }).click();
  await section.getByText('Badge colour').waitFor();
  const defined = (await kiosk.api('GET', '/v1/customfields')).body.customFields;
  const added = defined.find((f: { name: string }) => f.name === 'Badge colour');
  assert.deepEqual([added.type, added.options, added.location], ['Dropdown', ['Red', 'Blue'], 'FIELD']);
  await section.getByRole('button', { name: 'Remove: Badge colour' }).click();
  await section.getByText('Badge colour').waitFor({ state: 'detached' });
  assert.equal((await kiosk.api('GET', '/v1/customfields')).body.customFields.length, 4);
  await page.close();
});
