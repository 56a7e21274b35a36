/**
 * The Preetham clear-sky model (Preetham, Shirley & Smits, "A Practical Analytic Model for
 * Daylight", SIGGRAPH 1999): the sky's luminance as the Perez distribution scaled by the
 * zenith luminance, both functions of the turbidity T and the sun's zenith angle, and the
 * sun's irradiance at the ground through Rayleigh, aerosol (Ångström) and ozone extinction
 * along the model's relative air mass. Luminances in kcd/m², illuminances in klux, so that
 * their ratio is the physical one the fit (sky-fit.ts) relies on.
 */

/** Rec. 709 luminance weights. */
const LUMA = [0.2126, 0.7152, 0.0722] as const;
/** Wavelengths (micrometres) standing for the R, G and B channels. */
const WAVELENGTHS = [0.61, 0.55, 0.465] as const;
/** Ozone absorption (Preetham's table 2, per metre) at those wavelengths, and the layer's thickness (m). */
const OZONE_K = [12.0, 8.5, 0.9] as const;
const OZONE_LAYER = 0.0035;
/** Illuminance of the sun outside the atmosphere (klux), taken as white in linear RGB. */
const SOLAR_ILLUMINANCE = 128;
/** Least cosine of a view's zenith angle: the distribution is not defined below the horizon. */
const MIN_COS = 0.01;

/** Perez coefficients A..E of the luminance distribution for turbidity T. */
export function perezCoefficients(turbidity: number): [number, number, number, number, number] {
  const t = turbidity;
  return [0.1787 * t - 1.463, -0.3554 * t + 0.4275, -0.0227 * t + 5.3251, 0.1206 * t - 2.5771, -0.067 * t + 0.3703];
}

/**
 * The Perez distribution F(theta, gamma) (relative luminance).
 * @param c coefficients from `perezCoefficients`
 * @param cosTheta cosine of the view's zenith angle
 * @param gamma angle between the view and the sun (radians)
 */
export function perez(c: readonly number[], cosTheta: number, gamma: number): number {
  return perezGradation(c, cosTheta) * perezCircumsolar(c, gamma, Math.cos(gamma));
}

/**
 * The Perez distribution's gradation, 1 + A exp(B / cos theta): its factor that depends on
 * the view's elevation alone (a fit computes it once per row of samples, not per sample).
 */
export function perezGradation(c: readonly number[], cosTheta: number): number {
  return 1 + c[0]! * Math.exp(c[1]! / Math.max(cosTheta, MIN_COS));
}

/** The Perez distribution's circumsolar factor, 1 + C exp(D gamma) + E cos^2 gamma: its factor that depends on the angle to the sun alone. */
export function perezCircumsolar(c: readonly number[], gamma: number, cosGamma: number): number {
  return 1 + c[2]! * Math.exp(c[3]! * gamma) + c[4]! * cosGamma * cosGamma;
}

/** Zenith luminance (kcd/m²) for turbidity T and a sun at zenith angle thetaSun (radians). */
export function zenithLuminance(turbidity: number, thetaSun: number): number {
  const chi = (4 / 9 - turbidity / 120) * (Math.PI - 2 * thetaSun);
  return Math.max(1e-3, (4.0453 * turbidity - 4.971) * Math.tan(chi) - 0.2155 * turbidity + 2.4192);
}

/** Preetham's relative optical air mass towards a sun at zenith angle thetaSun (radians). */
export function airMass(thetaSun: number): number {
  const degrees = Math.min(thetaSun * (180 / Math.PI), 93);
  return 1 / (Math.cos(thetaSun) + 0.15 * Math.pow(93.885 - degrees, -1.253));
}

/**
 * The sun's irradiance on a surface facing it (klux-scaled linear RGB: luminance in klux),
 * through an atmosphere of turbidity T, for a sun at zenith angle thetaSun.
 */
export function sunIrradiance(turbidity: number, thetaSun: number): [number, number, number] {
  const m = airMass(thetaSun);
  const beta = 0.04608 * turbidity - 0.04586;
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const l = WAVELENGTHS[c]!;
    const rayleigh = 0.008735 * Math.pow(l, -4.08);
    const aerosol = beta * Math.pow(l, -1.3);
    out[c] = SOLAR_ILLUMINANCE * Math.exp(-m * (rayleigh + aerosol + OZONE_LAYER * OZONE_K[c]!));
  }
  return out;
}

/** Rec. 709 luminance of linear RGB. */
export function luminanceOf(rgb: readonly number[]): number {
  return LUMA[0] * rgb[0]! + LUMA[1] * rgb[1]! + LUMA[2] * rgb[2]!;
}

/**
 * Blueness, (B - R) / (B + R), of a pure Rayleigh sky lit by the sun at zenith angle
 * thetaSun through a clear atmosphere (turbidity 2): scattering goes as the wavelength to
 * the -4 (about 3 times more blue than red), and the light reaching the sky is reddened
 * along the sun's air mass. About 0.44 with the sun high, 0.34 at 20 degrees, below 0
 * under 6 degrees (a sunset sky is lit by red light).
 */
export function rayleighBlueness(thetaSun: number): number {
  const light = sunIrradiance(2, thetaSun);
  const red = light[0] * Math.pow(WAVELENGTHS[0], -4);
  const blue = light[2] * Math.pow(WAVELENGTHS[2], -4);
  return (blue - red) / (blue + red);
}
