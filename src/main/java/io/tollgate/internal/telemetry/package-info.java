/**
 * Tollgate's instruments and span attributes through the OpenTelemetry API, where the server offers MicroProfile
 * Telemetry. Internal: not an API.
 */
package io.tollgate.internal.telemetry;
