/** The traffic model of a scenario: clients, phases, arrivals and drawn values, read and validated from properties. */
package io.tollgate.simulator.traffic;
