/** Flujo's mark, the same on the public site and in the dashboard; the wordmark beside it is text. */
export function BrandLogo() {
  return (
    <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#0f6894" />
      <path
        d="M8 22c4-10 12-10 16-12M8 16c4-6 9-6 12-7"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}
