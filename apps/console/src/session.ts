/** The API key lives in sessionStorage only (CONTRACTS.md "Wave 3: dispatcher console"): gone with the tab. */
const KEY = 'fieldwork.console.apiKey';

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
