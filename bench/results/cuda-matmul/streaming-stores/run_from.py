"""Runs lds-bench from another checkout (argv[1]) in place of the editable install's ldsopt."""
import importlib, sys
root = sys.argv.pop(1)
sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]
sys.path.insert(0, root)
import ldsopt
ldsopt.__path__ = [root + '/ldsopt']
for sub, folder in (('passes', 'passes'), ('tools', 'tools'), ('models', 'models')):
    spec = importlib.util.spec_from_file_location('ldsopt.' + sub, f'{root}/{folder}/__init__.py',
                                                  submodule_search_locations=[f'{root}/{folder}'])
    mod = importlib.util.module_from_spec(spec); sys.modules['ldsopt.' + sub] = mod; spec.loader.exec_module(mod)
from ldsopt.tools.launch import lds_bench
sys.argv[0] = 'lds-bench'
sys.exit(lds_bench())
