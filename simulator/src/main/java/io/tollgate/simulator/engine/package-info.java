/** Tollgate's own decision path (configuration reader, request gate, limiter, in-memory store) on a virtual clock. */
package io.tollgate.simulator.engine;
