// The preload of the kiosk window. It runs sandboxed, so it is bundled into one CommonJS file whose only
// `require` is `electron` (see main/build/build.ts). It exposes exactly the functions of PortariaBridge, each
// passing only its own arguments on: the page never sees ipcRenderer or an IPC event.
import { contextBridge, ipcRenderer } from 'electron';
import { channels, type PortariaBridge } from './api.ts';

const bridge: PortariaBridge = {
  connection: () => ipcRenderer.invoke(channels.connection),
  appVersion: () => ipcRenderer.invoke(channels.appVersion),
  printBadge: (request) => ipcRenderer.invoke(channels.printBadge, request),
  exitKiosk: (pin) => ipcRenderer.invoke(channels.exitKiosk, pin),
};

contextBridge.exposeInMainWorld('portaria', bridge);
