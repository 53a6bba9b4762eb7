/** The simulator: Tollgate's decision engine on a virtual clock over modelled traffic or an access log ({@link io.tollgate.simulator.Main}). A tool beside the library, with no API guarantee. */
package io.tollgate.simulator;
