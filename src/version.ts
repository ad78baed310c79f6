/** Service version reported by `GET /v1/status` and the OpenAPI document (spec §9). */
export const SERVICE_VERSION = '1.0.0';

/** Version of the API description (spec §9: "The API description version is 1.0.0"). */
export const API_VERSION = '1.0.0';
