import { readSchemaText } from "../schema/schema-files.js";

export async function schemaCommand(): Promise<void> {
  process.stdout.write(readSchemaText());
}
