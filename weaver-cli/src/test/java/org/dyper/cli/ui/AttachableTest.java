package org.dyper.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The page offers to attach to programs, never to Dyper's own commands (a dyper run launcher, ctl, patchd, ui). */
class AttachableTest {
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource({
        "org.dyper.cli.Main, true",
        "org.dyper.samples.hotspot.HotspotApp, false",
        "com.acme.Main, false",
        "/opt/app/service.jar, false",
        "'', false",
    })
    void dypersOwnCommandsAreNotOffered(String main, boolean dyper) {
        assertEquals(dyper, Api.isDyper(main));
    }
}
