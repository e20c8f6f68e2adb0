package org.dyper.runtime.monitor;

import org.dyper.testsupport.Jdk;

/** The monitor commands on JDK 25. */
class MonitorCommandsJdk25Test extends MonitorCommandsContract {
    @Override
    Jdk jdk() {
        return Jdk.JDK25;
    }
}
