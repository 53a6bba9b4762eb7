/** What a run produced: the table's rows, the chart's lanes, and the headroom below {@code burst + rate × T}. */
package io.tollgate.simulator.report;
