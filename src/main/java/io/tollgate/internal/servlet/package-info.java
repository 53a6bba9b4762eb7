/**
 * Servlet glue: the HTTP request being served, read through CDI's built-in {@code HttpServletRequest} bean.
 * Loaded only where the application can see the Servlet API. Internal: no API guarantee.
 */
package io.tollgate.internal.servlet;
