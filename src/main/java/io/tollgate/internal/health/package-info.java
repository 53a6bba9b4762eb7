/** Tollgate's readiness check, where the server offers MicroProfile Health. Internal: not an API. */
package io.tollgate.internal.health;
