import type { ReactNode } from 'react';
import { SOCIAL_LINKS, type SocialNetwork } from './site-config';

// Drawn here and bundled: a social icon must never fetch a script, font or image from the network it names.
const ICONS: Record<SocialNetwork, ReactNode> = {
  linkedin: (
    <>
      <rect x="3.5" y="9" width="3.5" height="11" />
      <circle cx="5.25" cy="5.25" r="2" />
      <path d="M9.5 9H13v1.6c.6-1 1.8-1.9 3.6-1.9 3 0 4.4 1.9 4.4 5.2V20h-3.5v-5.4c0-1.5-.6-2.5-2-2.5s-2.5 1-2.5 2.5V20H9.5z" />
    </>
  ),
  facebook: (
    <path d="M13.5 22v-8h2.8l.5-3.4h-3.3V8.5c0-1 .4-1.7 1.8-1.7h1.6V3.8a21 21 0 0 0-2.4-.1c-2.6 0-4.2 1.5-4.2 4.3v2.6H7.5V14h2.8v8z" />
  ),
  instagram: (
    <path
      fillRule="evenodd"
      d="M7.5 2.5h9a5 5 0 0 1 5 5v9a5 5 0 0 1-5 5h-9a5 5 0 0 1-5-5v-9a5 5 0 0 1 5-5zm0 2a3 3 0 0 0-3 3v9a3 3 0 0 0 3 3h9a3 3 0 0 0 3-3v-9a3 3 0 0 0-3-3zM12 7.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM17.2 5.6a1.2 1.2 0 1 1 0 2.4 1.2 1.2 0 0 1 0-2.4z"
    />
  ),
  x: (
    <path d="M3.5 3.5h5.2l4.1 5.7 4.9-5.7h2.3l-6.2 7.2 6.7 9.8h-5.2l-4.4-6.2-5.4 6.2H3.2l6.6-7.6zm3 1.5 9.8 14h1.8L8.4 5z" />
  ),
  youtube: (
    <path
      fillRule="evenodd"
      d="M6 5h12a4 4 0 0 1 4 4v6a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V9a4 4 0 0 1 4-4zm4 3.8v6.4l5.5-3.2z"
    />
  ),
};

/** Links to Flujo's social profiles; each icon is inline SVG and the link carries the accessible name. */
export function SocialLinks() {
  return (
    <ul className="site-social">
      {SOCIAL_LINKS.map((link) => (
        <li key={link.network}>
          <a href={link.href} rel="noopener noreferrer" target="_blank">
            <span className="site-visually-hidden">{link.label}</span>
            <svg
              viewBox="0 0 24 24"
              width="24"
              height="24"
              fill="currentColor"
              aria-hidden="true"
              focusable="false"
            >
              {ICONS[link.network]}
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
