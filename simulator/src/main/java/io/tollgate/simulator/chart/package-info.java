/** The chart of a run, drawn with JFreeChart and written as SVG (Apache Batik) and PNG. */
package io.tollgate.simulator.chart;
