declare module 'virtual:world-outline' {
  /** SVG path of the land, equirectangular: x = lon + 180 (0..360), y = 90 − lat (0..180). */
  const outline: string;
  export default outline;
}
