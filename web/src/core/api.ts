/** JSON over fetch with the server's `{ error }` turned into an Error carrying the words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    value = null;
  }
  if (!res.ok) {
    const err =
      value && typeof value === 'object' && 'error' in value
        ? String((value as { error: unknown }).error)
        : `${res.status} ${res.statusText}`;
    throw new ApiError(err, res.status);
  }
  return value as T;
}
