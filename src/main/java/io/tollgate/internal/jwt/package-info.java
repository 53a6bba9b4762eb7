/** Claims of a verified MicroProfile JWT, where the server offers MicroProfile JWT. Internal: no API guarantee. */
package io.tollgate.internal.jwt;
