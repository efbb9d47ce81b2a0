// NOTE: namespace URIs from SAT cfdv40.xsd, TimbreFiscalDigitalv11.xsd and cfdv33.xsd. Match on these, never on prefixes.
export const CFDI_40_NAMESPACE = 'http://www.sat.gob.mx/cfd/4';
/** CFDI 3.2 and 3.3 share this namespace; only the Version attribute tells them apart. */
export const CFDI_3X_NAMESPACE = 'http://www.sat.gob.mx/cfd/3';
export const TFD_NAMESPACE = 'http://www.sat.gob.mx/TimbreFiscalDigital';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
/** NOTE: SAT's Pagos 2.0 complement (Pagos20.xsd, the REP of CFDI 4.0); the XSLT is in sat-xslt/cfd/Pagos/. */
export const PAGOS_20_NAMESPACE = 'http://www.sat.gob.mx/Pagos20';
