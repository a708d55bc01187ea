// The live captures' folders (test/fixtures/live/): <backend>-<version> for a backend's native stream,
// <agent>-acp-<version> for an agent driven over the Agent Client Protocol, read as backend "acp".

/** The backend that reads a capture folder's streams (what --from names for them). */
export function captureReader(folder: string): string {
  return folder.split("-")[1] === "acp" ? "acp" : folder.split("-")[0]!;
}
