import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './ipc-bridge';

/**
 * The sandboxed preload: exposes `window.cairn`, the Bridge, and nothing else. It must bundle into
 * one CommonJS file that requires only `electron` (a sandboxed preload can require nothing else),
 * so it imports only ./ipc-bridge and types. It exports nothing.
 */
contextBridge.exposeInMainWorld('cairn', createBridge(ipcRenderer));
