export function registeredAbi(nodeFile: string): string | undefined;
export function builtForAbi(nodeFile: string, abi: string): boolean;
export function electronAbi(electronPackageDir: string): string;
export function nativeModuleFiles(dir: string): string[];
export function modulesNotBuiltFor(dir: string, abi: string): { file: string; abi: string }[];
