package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;

import io.rdmatrace.analyzer.AnalysisResult;

/** Writes an analysis in one format. */
public interface ReportWriter {
    void write(AnalysisResult result, ReportOptions options, PrintWriter out);
}
