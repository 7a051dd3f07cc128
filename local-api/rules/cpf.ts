/** Brazilian CPF: 11 digits (punctuation allowed) whose last two are check digits of the first nine. */
export function isValidCpf(text: string): boolean {
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(text.trim())) return false;
  const digits = text.replace(/\D/g, '').split('').map(Number);
  if (digits.every((d) => d === digits[0])) return false; // 000.000.000-00 and friends pass the sums
  const checkDigit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += (digits[i] ?? 0) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return checkDigit(9) === digits[9] && checkDigit(10) === digits[10];
}
