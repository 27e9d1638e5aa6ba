/** Transparent parts of a result show on a checkerboard, as image editors do. */
export const CHECKERBOARD = 'bg-[conic-gradient(#e5e7eb_25%,#fff_0_50%,#e5e7eb_0_75%,#fff_0)] bg-[length:20px_20px]';
