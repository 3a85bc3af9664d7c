export const HSTS_VALUE: string;
export function securityHeaders(options?: { https?: boolean; development?: boolean }): { key: string; value: string }[];
export function isHttpsUrl(url: string | undefined): boolean;
