# Source: https://github.com/karpathy/micrograd/blob/c911406e5ace8742e5841a7e0df113ecb5d54685/micrograd/__init__.py
# License: MIT, Copyright (c) 2020 Andrej Karpathy (https://github.com/karpathy/micrograd/blob/c911406e5ace8742e5841a7e0df113ecb5d54685/LICENSE)
