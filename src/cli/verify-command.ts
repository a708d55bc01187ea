export async function verifyCommand(_file: string): Promise<void> {
  throw new Error("verify: not yet built");
}
