/**
 * REST interfaces as an OpenAPI generator produces them ({@code interfaceOnly}): the JAX-RS annotations of
 * the methods and their parameters live here, the implementations in {@code io.tollgate.sample}. The
 * resource's own {@code @Path} is on the implementation class: JAX-RS does not inherit class annotations from
 * an interface (Open Liberty does not route such a resource), and with {@code @Path} on both, Jersey (Payara)
 * registers the interface as a second resource and refuses the application (ambiguous resource methods).
 */
package io.tollgate.sample.api;
