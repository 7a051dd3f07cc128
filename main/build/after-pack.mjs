// electron-builder's afterPack hook (electron-builder.yml): the packaged app is refused, before any installer is
// made of it, when one of its native modules was not built for the Electron it runs in. Such a module installs
// without a word and fails at the kiosk's first start ("was compiled against a different Node.js version").
import { join, relative } from 'node:path';
import { electronAbi, modulesNotBuiltFor } from './native-abi.mjs';

export default async function afterPack(context) {
  const abi = electronAbi(join(context.packager.projectDir, 'node_modules', 'electron'));
  const wrong = modulesNotBuiltFor(context.appOutDir, abi);
  if (wrong.length > 0) {
    const listed = wrong.map((module) => `${relative(context.appOutDir, module.file)} (ABI ${module.abi})`).join(', ');
    throw new Error(
      `packaged native modules not built for Electron's ABI ${abi}: ${listed}. Build them for Electron with npm run ` +
        "dist, with network access to Electron's headers (README, Troubleshooting).",
    );
  }
}
