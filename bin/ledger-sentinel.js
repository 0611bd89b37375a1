#!/usr/bin/env node
// Thin launcher: the compiled entry point lives in dist/ (built by `npm ci` through the prepare script).
import '../dist/main.js';
