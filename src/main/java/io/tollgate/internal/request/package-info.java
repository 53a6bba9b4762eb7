/**
 * What a rule reads from a request (keys, costs, match conditions, paths, the client address),
 * over a framework-free {@link io.tollgate.internal.request.RequestView}. Internal: no API guarantee.
 */
package io.tollgate.internal.request;
