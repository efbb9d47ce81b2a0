// altcha ships types for its main entry only; the locale module registers strings as a side effect.
declare module 'altcha/i18n/es-419';
