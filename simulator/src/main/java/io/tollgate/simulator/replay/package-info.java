/** Access logs (Open Liberty, Payara, NCSA common and combined, custom patterns) replayed through the rules. */
package io.tollgate.simulator.replay;
