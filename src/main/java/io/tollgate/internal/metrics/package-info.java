/** Tollgate's metrics, where the server offers MicroProfile Metrics. Internal: not an API. */
package io.tollgate.internal.metrics;
