// The Spanish answers of the provider's requests to Flujo: referring a customer, asking for an alliance and
// reading the know-your-business figures (decision 0038). Written once; the server sends them, the client
// shows what the server sent, and tests compare against these constants.

export const PROVIDER_REQUEST_MESSAGES = {
  referralSent:
    '¡Gracias por tu recomendación! Nuestro equipo contactará a tu cliente en los próximos días hábiles.',
  allianceRequested:
    'Recibimos tu solicitud de alianza. Contactaremos a tu cliente y te avisaremos cuando la alianza esté activa.',
  allianceAlreadyRequested:
    'Ya tenemos una solicitud de alianza abierta con este cliente; te avisaremos en cuanto tengamos respuesta.',
  knowYourBusinessType:
    'Indica qué información quieres consultar: income_invoices, expense_invoices o resume_indicators.',
  providerOnly: 'Esta sección es solo para cuentas de proveedor.',
} as const;
