// The build failed in generate, listing both mistakes of the model as file:line:col: ELEMENT: message.
def log = new File(basedir, 'build.log').text
def model = new File(basedir, 'src/main/dyper/broken.xml').canonicalPath
assert log.contains('dyper: 2 problem(s) in the model and mode files; nothing was woven'): log
assert log.contains(model + ':4:5: PATCH: '): "no problem at line 4 in\n" + log
assert log.contains(model + ':5:5: PATCH: '): "no problem at line 5 in\n" + log
assert log.contains('PATCH: unknown attribute COLOUR')
assert log.contains("PATCH: WHAT='LEAVE' is not one of ENTER, EXIT")
assert log.contains(':generate (default) on project model-error')
assert !new File(basedir, 'target/generated-sources/dyper').exists()
return true
