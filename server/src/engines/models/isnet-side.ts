/**
 * Every side ISNet is run at is a multiple of this: the network halves the image six times (a stride-2
 * convolution, then five poolings), and each of its upsamplings is an exact doubling (isnet-graph.ts). Its own
 * module so that the Select object logic can round to it without loading the model's runtime.
 */
export const ISNET_SIDE_STEP = 64;
