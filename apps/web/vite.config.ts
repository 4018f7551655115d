import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import postcssPresetMantine from 'postcss-preset-mantine';

export default defineConfig({
  plugins: [react()],
  css: { postcss: { plugins: [postcssPresetMantine()] } },
  // In development the API runs on its own port (the server's default); the built app is served by the server.
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React and the router change less often than the app: a chunk of their own stays cached
        // across releases. Everything else, Mantine included, is split at the routes' dynamic
        // imports, so each page loads the components it uses and charts, date pickers and the
        // targeting editor load only where used; no catch-all vendor group.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
});
