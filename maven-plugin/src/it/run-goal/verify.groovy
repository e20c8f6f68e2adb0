// dyper:run passed the arguments and JVM options, wrote both reports, and failed the build on exit code 3.
def Dy = evaluate(new File(itLib))
def expected = [
    'COUNTS it.run.Greeter.greet(int)': 250L,
    'COUNTS it.run.Greeter.extra()'   : 7L,
    'COUNTS it.run.Greeter.<init>()'  : 1L,
    'TIMING it.run.Greeter.greet(int)': 250L,
]
Dy.expectCounts(Dy.report(new File(basedir, 'reports/report-0.xml')), expected, 'dyper:run')
Dy.expectCounts(Dy.report(new File(basedir, 'reports/report-3.xml')), expected, 'dyper:run exiting with 3')
def text = new File(basedir, 'reports/report-0.txt')
assert text.isFile() && text.text.contains('it.run.Greeter.greet(int)')
def log = new File(basedir, 'build.log').text
assert log.contains('run-goal done')
assert log.contains('dyper: run: the program exited with code 3')
return true
