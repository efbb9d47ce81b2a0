import { type Centavos, type DisplayCurrency, formatMoney } from '../../domain/money';

/**
 * A headline amount with its currency (formatMoney's text, '$500,000.00 MXN'), the code set smaller than the
 * figure so a card's large numbers keep their room; read aloud and copied it is the same text. The figure never
 * breaks inside ('$1,265,320.' over '17'): a narrow card moves the code under it instead.
 */
export function MoneyFigure({ amount, currency }: { amount: Centavos; currency: DisplayCurrency }) {
  const text = formatMoney(amount, currency);
  const cut = text.lastIndexOf(' ');
  return (
    <>
      <span className="flujo-money-amount">{text.slice(0, cut)}</span>
      <span className="flujo-money-code">{text.slice(cut)}</span>
    </>
  );
}
