# The plug-in package here is the source that tests/test_plugin_native.py copies and
# compiles into a temporary folder: never collected (its engine needs the compiled _ttt).
collect_ignore = ["tictac_native"]
