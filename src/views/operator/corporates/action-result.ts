/** What an operator's action answered, as the screen shows it (the route turns the HTTP answer into this). */
export type ActionResult =
  | { ok: true }
  | {
      ok: false;
      /** The server's Spanish words, or a generic one when it gave none. */
      message: string;
      /** Spanish messages per field ('admin.email'), for a form. */
      fields?: Record<string, string[]>;
    };
