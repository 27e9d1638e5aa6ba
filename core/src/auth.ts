/** The Firebase web settings the browser needs (public by design), read at run time from the server. */
export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  storageBucket?: string;
  messagingSenderId?: string;
  appId?: string;
  measurementId?: string;
}

/** `GET /api/config` → `auth`: how this deployment signs people in. */
export interface PublicAuthConfig {
  mode: 'emulator' | 'firebase';
  firebase: FirebaseWebConfig;
  /** Set in emulator mode: the local Firebase Auth emulator the popup talks to. */
  emulatorUrl: string | null;
}
