/** electron-builder's afterPack context, as much of it as the check reads. */
export default function afterPack(context: { appOutDir: string; packager: { projectDir: string } }): Promise<void>;
