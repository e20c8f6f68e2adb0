package org.dyper.runtime.monitor;

import org.dyper.testsupport.Jdk;

/** The monitor commands on JDK 17. */
class MonitorCommandsJdk17Test extends MonitorCommandsContract {
    @Override
    Jdk jdk() {
        return Jdk.JDK17;
    }
}
