export interface BuildInputs {
  folders: Record<string, string[]>;
  inputs: Record<string, [number, number] | null>;
}
export function filesUnder(root: string, dir: string): string[];
export function recordInputs(
  root: string,
  manifestFile: string,
  inputs: { folders?: string[]; files?: string[] },
): void;
export function readInputs(manifestFile: string): BuildInputs | undefined;
export function staleness(root: string, manifestFile: string): string | undefined;
export function stalenessInBackground(root: string, manifestFile: string): Promise<string | undefined>;
export function withBuildLock<T>(lockDir: string, build: () => Promise<T>, staleMs?: number): Promise<T>;
