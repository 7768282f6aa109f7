package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** validate's summary line counts the run's design runs, "1 design run" in the singular. */
public class ValidateLineTest extends JUnitSuite {
    @Test
    public void aValidateLineCountsDesignRunsInTheSingularToo() {
        assertEquals("; 1 design run", ValidateCommand.runs(1));
        assertEquals("; 1,200 design runs", ValidateCommand.runs(1200));
    }
}
