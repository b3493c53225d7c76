import type { Response } from 'express';
import type { z } from 'zod';

/** A zod failure as a 400 with each bad field named: `{ error, issues: [{ path, message }] }`. */
export function badRequest(res: Response, what: string, error: z.ZodError): void {
  const issues = error.issues.map((i) => ({
    path: i.path.map(String).join('.') || '(root)',
    message: i.message,
  }));
  res
    .status(400)
    .json({ error: `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues });
}
